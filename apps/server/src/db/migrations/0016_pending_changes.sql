CREATE TABLE "pending_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"target_name" text NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb,
	"changes" jsonb NOT NULL,
	"reason" text NOT NULL,
	"requested_by_admin_id" integer,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decision" text,
	"decided_by_admin_id" integer,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	CONSTRAINT "pending_changes_decision" CHECK ("pending_changes"."decision" is null or "pending_changes"."decision" in ('approved', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_requested_by_admin_id_admins_id_fk" FOREIGN KEY ("requested_by_admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_decided_by_admin_id_admins_id_fk" FOREIGN KEY ("decided_by_admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pending_changes_open_target_idx" ON "pending_changes" USING btree ("target_type","target_id") WHERE "pending_changes"."decision" is null;--> statement-breakpoint
CREATE INDEX "pending_changes_requested_at_idx" ON "pending_changes" USING btree ("requested_at");
