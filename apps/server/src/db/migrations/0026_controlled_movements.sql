CREATE TABLE "movements" (
	"id" serial PRIMARY KEY NOT NULL,
	"destination_geofence_id" text NOT NULL,
	"destination_name" text NOT NULL,
	"due_by" timestamp with time zone NOT NULL,
	"escort_staff_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "movement_prisoners" (
	"movement_id" integer NOT NULL,
	"prisoner_id" integer NOT NULL,
	"origin_geofence_ids" text[],
	"arrived_at" timestamp with time zone,
	"overdue_at" timestamp with time zone,
	"off_route_at" timestamp with time zone,
	"off_route_geofence" text,
	CONSTRAINT "movement_prisoners_pk" PRIMARY KEY("movement_id","prisoner_id")
);
--> statement-breakpoint
ALTER TABLE "movements" ADD CONSTRAINT "movements_escort_staff_id_staff_staff_id_fk" FOREIGN KEY ("escort_staff_id") REFERENCES "public"."staff"("staff_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movement_prisoners" ADD CONSTRAINT "movement_prisoners_movement_id_movements_id_fk" FOREIGN KEY ("movement_id") REFERENCES "public"."movements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movement_prisoners" ADD CONSTRAINT "movement_prisoners_prisoner_id_prisoners_prisoner_id_fk" FOREIGN KEY ("prisoner_id") REFERENCES "public"."prisoners"("prisoner_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "movements_created_idx" ON "movements" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "movement_prisoners_open_idx" ON "movement_prisoners" USING btree ("prisoner_id") WHERE "movement_prisoners"."arrived_at" is null;
