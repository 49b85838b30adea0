-- positions becomes partitioned by day (UTC) on recorded_at, keeping every fix. The table's key is now the device
-- and time (it was already unique); the bigserial id, its key index and the time btree go (a BRIN on time replaces
-- it). A default partition takes any fix whose day has no partition yet, so an insert never fails; the server makes
-- the days ahead and moves such fixes into their day (tracking/position-partitions.ts).
DROP INDEX "positions_device_time_uq";--> statement-breakpoint
DROP INDEX "positions_prisoner_time_idx";--> statement-breakpoint
DROP INDEX "positions_recorded_idx";--> statement-breakpoint
DROP INDEX "positions_staff_time_idx";--> statement-breakpoint
DROP INDEX "positions_grid_time_idx";--> statement-breakpoint
ALTER TABLE "positions" DROP CONSTRAINT "positions_pkey";--> statement-breakpoint
ALTER TABLE "positions" RENAME TO "positions_unpartitioned";--> statement-breakpoint
CREATE TABLE "positions" (
	"device_id" text NOT NULL,
	"prisoner_id" integer,
	"staff_id" integer,
	"recorded_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"accuracy" real,
	"speed" real,
	"bearing" real,
	"altitude" real,
	"battery" real,
	CONSTRAINT "positions_pkey" PRIMARY KEY ("device_id", "recorded_at")
) PARTITION BY RANGE ("recorded_at");--> statement-breakpoint
CREATE TABLE "positions_default" PARTITION OF "positions" DEFAULT WITH (autovacuum_vacuum_insert_scale_factor = 0.01);--> statement-breakpoint
DO $$
DECLARE
	day date;
BEGIN
	FOR day IN
		SELECT DISTINCT (recorded_at AT TIME ZONE 'UTC')::date FROM positions_unpartitioned
		UNION SELECT (now() AT TIME ZONE 'UTC')::date + g FROM generate_series(-1, 3) AS g
	LOOP
		EXECUTE format(
			'CREATE TABLE %I PARTITION OF positions FOR VALUES FROM (%L) TO (%L) WITH (autovacuum_vacuum_insert_scale_factor = 0.01)',
			'positions_' || to_char(day, 'YYYYMMDD'), day::text || ' 00:00:00+00', (day + 1)::text || ' 00:00:00+00');
	END LOOP;
END $$;--> statement-breakpoint
INSERT INTO "positions" ("device_id", "prisoner_id", "staff_id", "recorded_at", "received_at", "latitude", "longitude", "accuracy", "speed", "bearing", "altitude", "battery")
	SELECT "device_id", "prisoner_id", "staff_id", "recorded_at", "received_at", "latitude", "longitude", "accuracy", "speed", "bearing", "altitude", "battery"
	FROM "positions_unpartitioned";--> statement-breakpoint
DROP TABLE "positions_unpartitioned";--> statement-breakpoint
CREATE INDEX "positions_prisoner_time_idx" ON "positions" USING btree ("prisoner_id","recorded_at","latitude","longitude","speed","accuracy");--> statement-breakpoint
CREATE INDEX "positions_recorded_idx" ON "positions" USING brin ("recorded_at");--> statement-breakpoint
CREATE INDEX "positions_staff_time_idx" ON "positions" USING btree ("staff_id","recorded_at","latitude","longitude") WHERE "staff_id" is not null;--> statement-breakpoint
CREATE INDEX "positions_grid_time_idx" ON "positions" USING btree ((floor("latitude" * 5000)::bigint * 2000000 + floor(("longitude" + 180) * 5000)::bigint),"recorded_at","latitude","longitude","prisoner_id","staff_id");
