ALTER TABLE "readers" ADD COLUMN "format" text DEFAULT 'prison' NOT NULL;--> statement-breakpoint
ALTER TABLE "readers" ADD CONSTRAINT "readers_format_check" CHECK ("readers"."format" in ('prison', 'openmqttgateway', 'minew'));
