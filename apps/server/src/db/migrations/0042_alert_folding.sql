ALTER TABLE "alerts" ADD COLUMN "needs_action" boolean DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE "alerts" SET "needs_action" = false WHERE "kind" = 'geofence' AND "alert_type" = 'Informational';--> statement-breakpoint
ALTER TABLE "geofences" ALTER COLUMN "dwell_seconds" SET DEFAULT 10;--> statement-breakpoint
CREATE INDEX "alerts_open_foldable_idx" ON "alerts" USING btree ("kind","geofence_id","prisoner_id","device_id") WHERE "alerts"."kind" in ('geofence', 'offline') and "alerts"."status" <> 'Resolved';--> statement-breakpoint
UPDATE "geofences" SET "dwell_seconds" = 300 WHERE "dwell_seconds" > 300;
