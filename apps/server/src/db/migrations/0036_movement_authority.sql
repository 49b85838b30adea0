ALTER TABLE "movements" ADD COLUMN "via_geofence_ids" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "movements" ADD COLUMN "closed_reason" text;--> statement-breakpoint
ALTER TABLE "movements" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "movements" ADD COLUMN "ended_by" text;--> statement-breakpoint
ALTER TABLE "movements" ADD COLUMN "cancelled" boolean DEFAULT false NOT NULL;
