ALTER TABLE "pending_changes" ADD COLUMN "until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pending_changes" ADD COLUMN "restore" jsonb;--> statement-breakpoint
ALTER TABLE "pending_changes" ADD COLUMN "reverted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "pending_changes_weakened_idx" ON "pending_changes" USING btree ("until") WHERE "pending_changes"."decision" = 'approved' and "pending_changes"."until" is not null and "pending_changes"."reverted_at" is null;--> statement-breakpoint
CREATE TABLE "account_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"admin_id" integer NOT NULL,
	"by_admin_id" integer,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_grants_kind" CHECK ("account_grants"."kind" in ('created', 'enabled', 'role', 'password'))
);
--> statement-breakpoint
ALTER TABLE "account_grants" ADD CONSTRAINT "account_grants_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_grants" ADD CONSTRAINT "account_grants_by_admin_id_admins_id_fk" FOREIGN KEY ("by_admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_grants_admin_at_idx" ON "account_grants" USING btree ("admin_id","at");
