ALTER TABLE "incidents" ADD COLUMN "status" text DEFAULT 'reported' NOT NULL;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "window_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "window_to" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_status_check" CHECK ("incidents"."status" in ('reported', 'investigating', 'closed'));--> statement-breakpoint
CREATE TABLE "incident_steps" (
	"id" serial PRIMARY KEY NOT NULL,
	"incident_id" integer NOT NULL,
	"status" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"admin_id" integer,
	"actor" text NOT NULL,
	"note" text
);--> statement-breakpoint
ALTER TABLE "incident_steps" ADD CONSTRAINT "incident_steps_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incident_steps_incident_idx" ON "incident_steps" USING btree ("incident_id","at");--> statement-breakpoint
CREATE TABLE "incident_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"incident_id" integer NOT NULL,
	"kind" text NOT NULL,
	"target_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "incident_links_kind_check" CHECK ("incident_links"."kind" in ('alert', 'prisoner', 'staff'))
);--> statement-breakpoint
ALTER TABLE "incident_links" ADD CONSTRAINT "incident_links_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "incident_links_unique" ON "incident_links" USING btree ("incident_id","kind","target_id");--> statement-breakpoint
-- Every incident stored before the workflow was reported when it was recorded.
INSERT INTO "incident_steps" ("incident_id", "status", "at", "actor") SELECT "id", 'reported', "created_at", 'system' FROM "incidents";
