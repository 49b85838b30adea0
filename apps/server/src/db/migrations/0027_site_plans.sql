CREATE TABLE "site_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"image" bytea NOT NULL,
	"byte_size" integer NOT NULL,
	"digest" text NOT NULL,
	"width" double precision NOT NULL,
	"height" double precision NOT NULL,
	"points" jsonb NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_plans_content_type_check" CHECK ("site_plans"."content_type" in ('image/png', 'image/jpeg', 'image/svg+xml'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "site_plans_one_default" ON "site_plans" USING btree ("is_default") WHERE "site_plans"."is_default";
