CREATE TABLE "escorts" (
	"id" serial PRIMARY KEY NOT NULL,
	"prisoner_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"max_distance_m" integer DEFAULT 50 NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	CONSTRAINT "escorts_distance" CHECK ("escorts"."max_distance_m" between 5 and 5000)
);
--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "tracking_device_id" text;--> statement-breakpoint
ALTER TABLE "escorts" ADD CONSTRAINT "escorts_prisoner_id_prisoners_prisoner_id_fk" FOREIGN KEY ("prisoner_id") REFERENCES "public"."prisoners"("prisoner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escorts" ADD CONSTRAINT "escorts_staff_id_staff_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("staff_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "escorts_active_idx" ON "escorts" USING btree ("prisoner_id") WHERE "escorts"."ended_at" is null;--> statement-breakpoint
ALTER TABLE "staff" ADD CONSTRAINT "staff_tracking_device_id_devices_id_fk" FOREIGN KEY ("tracking_device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "staff" ADD CONSTRAINT "staff_tracking_device_id_unique" UNIQUE("tracking_device_id");