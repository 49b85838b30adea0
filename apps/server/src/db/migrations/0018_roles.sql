ALTER TABLE "admins" ADD COLUMN "role" text DEFAULT 'administrator' NOT NULL;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "blocks" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "admins" ADD CONSTRAINT "admins_role_check" CHECK ("admins"."role" in ('administrator', 'supervisor', 'operator', 'officer', 'records', 'auditor'));
