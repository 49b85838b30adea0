ALTER TABLE "admins" ADD COLUMN "staff_id" integer;--> statement-breakpoint
ALTER TABLE "admins" ADD CONSTRAINT "admins_staff_id_staff_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("staff_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admins" ADD CONSTRAINT "admins_staff_id_unique" UNIQUE("staff_id");--> statement-breakpoint
CREATE TABLE "observation_levels" (
	"prisoner_id" integer PRIMARY KEY NOT NULL,
	"level" text NOT NULL,
	"interval_minutes" integer,
	"reason" text,
	"set_by" text NOT NULL,
	"set_at" timestamp with time zone NOT NULL,
	"watcher_staff_id" integer,
	"watcher_since" timestamp with time zone,
	"last_check_id" integer,
	"last_check_at" timestamp with time zone,
	"due_at" timestamp with time zone NOT NULL,
	"warning_alert_id" integer,
	"critical_alert_id" integer,
	CONSTRAINT "observation_levels_level" CHECK ("observation_levels"."level" in ('standard', 'enhanced', 'high', 'constant')),
	CONSTRAINT "observation_levels_interval" CHECK ("observation_levels"."interval_minutes" between 1 and 1440)
);
--> statement-breakpoint
ALTER TABLE "observation_levels" ADD CONSTRAINT "observation_levels_prisoner_id_prisoners_prisoner_id_fk" FOREIGN KEY ("prisoner_id") REFERENCES "public"."prisoners"("prisoner_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observation_levels" ADD CONSTRAINT "observation_levels_watcher_staff_id_staff_staff_id_fk" FOREIGN KEY ("watcher_staff_id") REFERENCES "public"."staff"("staff_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "observation_levels_due_idx" ON "observation_levels" USING btree ("due_at");--> statement-breakpoint
CREATE TABLE "observation_checks" (
	"id" serial PRIMARY KEY NOT NULL,
	"prisoner_id" integer NOT NULL,
	"observed" text NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"checked_by" text NOT NULL,
	"staff_id" integer,
	"method" text NOT NULL,
	"verified_by_position" boolean NOT NULL,
	"distance_m" double precision,
	"corrects_id" integer,
	"level" text NOT NULL,
	"interval_minutes" integer NOT NULL,
	"due_at" timestamp with time zone,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "observation_checks_hash_unique" UNIQUE("hash"),
	CONSTRAINT "observation_checks_method" CHECK ("observation_checks"."method" in ('position', 'control_room', 'no_tracker'))
);
--> statement-breakpoint
ALTER TABLE "observation_checks" ADD CONSTRAINT "observation_checks_prisoner_id_prisoners_prisoner_id_fk" FOREIGN KEY ("prisoner_id") REFERENCES "public"."prisoners"("prisoner_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observation_checks" ADD CONSTRAINT "observation_checks_staff_id_staff_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("staff_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observation_checks" ADD CONSTRAINT "observation_checks_corrects_id_observation_checks_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "public"."observation_checks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "observation_checks_prisoner_idx" ON "observation_checks" USING btree ("prisoner_id","checked_at");--> statement-breakpoint
CREATE TABLE "observation_handovers" (
	"id" serial PRIMARY KEY NOT NULL,
	"prisoner_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"previous_staff_id" integer,
	"at" timestamp with time zone NOT NULL,
	"by" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "observation_handovers" ADD CONSTRAINT "observation_handovers_prisoner_id_prisoners_prisoner_id_fk" FOREIGN KEY ("prisoner_id") REFERENCES "public"."prisoners"("prisoner_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observation_handovers" ADD CONSTRAINT "observation_handovers_staff_id_staff_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("staff_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "observation_handovers_prisoner_idx" ON "observation_handovers" USING btree ("prisoner_id","at");
