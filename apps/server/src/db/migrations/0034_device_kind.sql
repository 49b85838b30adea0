ALTER TABLE "devices" ADD COLUMN "kind" text DEFAULT 'phone' NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_kind_check" CHECK ("devices"."kind" in ('phone', 'tag'));
