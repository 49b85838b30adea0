ALTER TABLE "positions" ADD COLUMN "staff_id" integer;--> statement-breakpoint
CREATE INDEX "positions_staff_time_idx" ON "positions" USING btree ("staff_id","recorded_at","latitude","longitude") WHERE "staff_id" is not null;--> statement-breakpoint
CREATE INDEX "positions_grid_time_idx" ON "positions" USING btree ((floor("latitude" * 5000)::bigint * 2000000 + floor(("longitude" + 180) * 5000)::bigint),"recorded_at");
