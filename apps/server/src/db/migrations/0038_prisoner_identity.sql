-- Who is who: every prisoner has a prison number (A0001, A0002, ... from one sequence, unique across archived records
-- too), may have a photo (resized JPEG in the database, so every process of a cluster and every backup has it) and
-- may carry flags (self-harm, escape, violence, medical) with who set them, from and until, and a note.
CREATE SEQUENCE IF NOT EXISTS "prison_number_seq";--> statement-breakpoint
CREATE OR REPLACE FUNCTION next_prison_number() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT 'A' || lpad(n::text, greatest(4, length(n::text)), '0') FROM (SELECT nextval('prison_number_seq') AS n) s
$$;--> statement-breakpoint
ALTER TABLE "prisoners" ADD COLUMN "prison_number" text;--> statement-breakpoint
UPDATE "prisoners" p SET "prison_number" = 'A' || lpad(s.n::text, greatest(4, length(s.n::text)), '0')
  FROM (SELECT "prisoner_id", row_number() OVER (ORDER BY "prisoner_id") AS n FROM "prisoners") s
  WHERE s."prisoner_id" = p."prisoner_id";--> statement-breakpoint
SELECT setval('prison_number_seq', greatest((SELECT count(*) FROM "prisoners"), 1), (SELECT count(*) FROM "prisoners") > 0);--> statement-breakpoint
ALTER TABLE "prisoners" ALTER COLUMN "prison_number" SET DEFAULT next_prison_number();--> statement-breakpoint
-- Owned by the column: a restore with --force drops the tables and so the sequence too (the function is replaced).
ALTER SEQUENCE "prison_number_seq" OWNED BY "prisoners"."prison_number";--> statement-breakpoint
ALTER TABLE "prisoners" ALTER COLUMN "prison_number" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "prisoners_prison_number_idx" ON "prisoners" USING btree ("prison_number");--> statement-breakpoint
DROP INDEX "prisoners_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "prisoners_search_trgm_idx" ON "prisoners" USING gin (lower("first_name" || ' ' || "last_name" || ' ' || coalesce("national_id", '') || ' ' || coalesce("cell_id", '') || ' ' || "prison_number") gin_trgm_ops);--> statement-breakpoint
CREATE TABLE "prisoner_photos" (
	"prisoner_id" integer PRIMARY KEY NOT NULL,
	"image" bytea NOT NULL,
	"byte_size" integer NOT NULL,
	"digest" text NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prisoner_photos_prisoner_id_fk" FOREIGN KEY ("prisoner_id") REFERENCES "prisoners"("prisoner_id") ON DELETE cascade
);--> statement-breakpoint
CREATE TABLE "prisoner_flags" (
	"id" serial PRIMARY KEY NOT NULL,
	"prisoner_id" integer NOT NULL,
	"kind" text NOT NULL,
	"note" text,
	"set_by" text NOT NULL,
	"starts_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone,
	"cleared_at" timestamp with time zone,
	"cleared_by" text,
	"clear_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prisoner_flags_prisoner_id_fk" FOREIGN KEY ("prisoner_id") REFERENCES "prisoners"("prisoner_id") ON DELETE cascade,
	CONSTRAINT "prisoner_flags_kind_check" CHECK ("prisoner_flags"."kind" in ('self_harm', 'escape', 'violence', 'medical'))
);--> statement-breakpoint
CREATE INDEX "prisoner_flags_prisoner_idx" ON "prisoner_flags" USING btree ("prisoner_id") WHERE "prisoner_flags"."cleared_at" is null;
