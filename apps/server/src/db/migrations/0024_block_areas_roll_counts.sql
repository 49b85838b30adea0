CREATE TABLE "block_areas" (
	"block" text PRIMARY KEY NOT NULL,
	"points" jsonb NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "roll_counts" (
	"id" serial PRIMARY KEY NOT NULL,
	"block" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_by" text NOT NULL,
	"expected" integer NOT NULL,
	"located" integer NOT NULL,
	"blocks" jsonb NOT NULL,
	"lines" jsonb NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"counted" integer,
	"note" text,
	"submitted_at" timestamp with time zone,
	"submitted_by" text,
	"closed_at" timestamp with time zone,
	"closed_by" text,
	"close_note" text,
	CONSTRAINT "roll_counts_state_check" CHECK ("roll_counts"."state" in ('open', 'clear', 'discrepancy', 'closed'))
);--> statement-breakpoint
CREATE INDEX "roll_counts_block_started_idx" ON "roll_counts" USING btree ("block","started_at");--> statement-breakpoint
CREATE TABLE "count_warnings" (
	"block" text NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"alert_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "count_warnings_block_slot_pk" PRIMARY KEY("block","slot")
);--> statement-breakpoint
ALTER TABLE "count_warnings" ADD CONSTRAINT "count_warnings_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE set null ON UPDATE no action;
