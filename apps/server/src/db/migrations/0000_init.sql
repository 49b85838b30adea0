CREATE TABLE "admins" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admins_username_unique" UNIQUE("username")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"alert_type" text NOT NULL,
	"kind" text DEFAULT 'manual' NOT NULL,
	"details" text NOT NULL,
	"date" date NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"device_id" text,
	"prisoner_id" integer,
	"geofence_id" text,
	"ended_at" timestamp with time zone,
	"status" text DEFAULT 'New' NOT NULL,
	"acknowledged_by" integer,
	"acknowledged_at" timestamp with time zone,
	"resolved_by" integer,
	"resolved_at" timestamp with time zone,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"admin_id" integer,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"before" jsonb,
	"after" jsonb,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "cells" (
	"cell_id" text PRIMARY KEY NOT NULL,
	"block" text NOT NULL,
	"capacity" integer NOT NULL,
	"security_level" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"last_seen_at" timestamp with time zone,
	"last_fix_at" timestamp with time zone,
	"last_latitude" double precision,
	"last_longitude" double precision,
	"last_battery" real,
	"online" boolean DEFAULT false NOT NULL,
	"low_battery_alerted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "geofence_states" (
	"device_id" text NOT NULL,
	"geofence_id" text NOT NULL,
	"violating" boolean NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"alert_id" integer
);
--> statement-breakpoint
CREATE TABLE "geofences" (
	"geofence_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"shape" text NOT NULL,
	"type" text NOT NULL,
	"alert_type" text NOT NULL,
	"radius" double precision,
	"center_lat" double precision,
	"center_lng" double precision,
	"coordinates" jsonb,
	"dwell_seconds" integer DEFAULT 0 NOT NULL,
	"buffer_meters" double precision DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incidents" (
	"id" serial PRIMARY KEY NOT NULL,
	"prisoner_name" text NOT NULL,
	"guard_name" text NOT NULL,
	"date" date NOT NULL,
	"time" text NOT NULL,
	"description" text NOT NULL,
	"action_taken" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_throttle" (
	"username" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"admin_id" integer,
	"author_name" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "positions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" text NOT NULL,
	"prisoner_id" integer,
	"recorded_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"accuracy" real,
	"speed" real,
	"bearing" real,
	"altitude" real,
	"battery" real
);
--> statement-breakpoint
CREATE TABLE "prisoners" (
	"prisoner_id" serial PRIMARY KEY NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"date_of_birth" date,
	"gender" text,
	"national_id" text,
	"entry_date" date,
	"release_date" date,
	"status" text,
	"cell_id" text,
	"behavior_record" text,
	"medical_history" text,
	"tracking_device_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prisoners_tracking_device_id_unique" UNIQUE("tracking_device_id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"admin_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip" text,
	"user_agent" text,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "staff" (
	"staff_id" serial PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"role" text NOT NULL,
	"badge_number" text NOT NULL,
	"rank" text,
	"department" text,
	"contact_info" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_badge_number_unique" UNIQUE("badge_number")
);
--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_prisoner_id_prisoners_prisoner_id_fk" FOREIGN KEY ("prisoner_id") REFERENCES "public"."prisoners"("prisoner_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_acknowledged_by_admins_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_resolved_by_admins_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geofence_states" ADD CONSTRAINT "geofence_states_geofence_id_geofences_geofence_id_fk" FOREIGN KEY ("geofence_id") REFERENCES "public"."geofences"("geofence_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prisoners" ADD CONSTRAINT "prisoners_cell_id_cells_cell_id_fk" FOREIGN KEY ("cell_id") REFERENCES "public"."cells"("cell_id") ON DELETE restrict ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "prisoners" ADD CONSTRAINT "prisoners_tracking_device_id_devices_id_fk" FOREIGN KEY ("tracking_device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alerts_timestamp_idx" ON "alerts" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "alerts_prisoner_idx" ON "alerts" USING btree ("prisoner_id","timestamp");--> statement-breakpoint
CREATE INDEX "alerts_status_idx" ON "alerts" USING btree ("status");--> statement-breakpoint
CREATE INDEX "audit_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_entity_idx" ON "audit_log" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "geofence_states_pk" ON "geofence_states" USING btree ("device_id","geofence_id");--> statement-breakpoint
CREATE INDEX "messages_created_idx" ON "messages" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "positions_device_time_uq" ON "positions" USING btree ("device_id","recorded_at");--> statement-breakpoint
CREATE INDEX "positions_prisoner_time_idx" ON "positions" USING btree ("prisoner_id","recorded_at");--> statement-breakpoint
CREATE INDEX "positions_recorded_idx" ON "positions" USING btree ("recorded_at");--> statement-breakpoint
CREATE INDEX "prisoners_cell_idx" ON "prisoners" USING btree ("cell_id");--> statement-breakpoint
CREATE INDEX "prisoners_name_idx" ON "prisoners" USING btree ("last_name","first_name");--> statement-breakpoint
CREATE INDEX "prisoners_created_idx" ON "prisoners" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sessions_admin_idx" ON "sessions" USING btree ("admin_id");--> statement-breakpoint
CREATE INDEX "staff_role_idx" ON "staff" USING btree ("role","created_at");