ALTER TABLE "alerts" ADD COLUMN "raised_by" integer;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "staff_id" integer;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "responding" jsonb;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_raised_by_admins_id_fk" FOREIGN KEY ("raised_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_staff_id_staff_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("staff_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alerts_open_duress_idx" ON "alerts" USING btree ("raised_by") WHERE "alerts"."kind" = 'duress' and "alerts"."status" <> 'Resolved';
