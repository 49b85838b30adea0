ALTER TABLE "devices" ADD COLUMN "secret_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "repeat_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "last_repeat_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "alerts_open_alarm_idx" ON "alerts" USING btree ("device_id","kind") WHERE "alerts"."kind" in ('sos', 'tamper') and "alerts"."status" <> 'Resolved';
