ALTER TABLE "geofences" ADD COLUMN "applies_to" jsonb;--> statement-breakpoint
ALTER TABLE "geofences" ADD COLUMN "schedule" jsonb;
