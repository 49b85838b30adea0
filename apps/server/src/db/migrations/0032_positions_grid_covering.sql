DROP INDEX "positions_grid_time_idx";--> statement-breakpoint
CREATE INDEX "positions_grid_time_idx" ON "positions" USING btree ((floor("latitude" * 5000)::bigint * 2000000 + floor(("longitude" + 180) * 5000)::bigint),"recorded_at","latitude","longitude","prisoner_id","staff_id");--> statement-breakpoint
ALTER TABLE "positions" SET (autovacuum_vacuum_insert_scale_factor = 0.01);
