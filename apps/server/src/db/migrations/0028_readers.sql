CREATE TABLE "readers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"radius_m" real NOT NULL,
	"block_id" text,
	"cell_id" text,
	"secret_hash" text NOT NULL,
	"last_seen_at" timestamp with time zone,
	"refused_count" integer DEFAULT 0 NOT NULL,
	"silent_alert_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "readers" ADD CONSTRAINT "readers_cell_id_cells_cell_id_fk" FOREIGN KEY ("cell_id") REFERENCES "public"."cells"("cell_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readers" ADD CONSTRAINT "readers_silent_alert_id_alerts_id_fk" FOREIGN KEY ("silent_alert_id") REFERENCES "public"."alerts"("id") ON DELETE set null ON UPDATE no action;
