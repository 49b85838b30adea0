CREATE TABLE "keep_apart_pairs" (
	"id" serial PRIMARY KEY NOT NULL,
	"prisoner_a" integer NOT NULL,
	"prisoner_b" integer NOT NULL,
	"reason" text NOT NULL,
	"scope" text NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"end_reason" text,
	CONSTRAINT "keep_apart_pairs_distinct" CHECK ("keep_apart_pairs"."prisoner_a" <> "keep_apart_pairs"."prisoner_b")
);
--> statement-breakpoint
ALTER TABLE "keep_apart_pairs" ADD CONSTRAINT "keep_apart_pairs_prisoner_a_prisoners_prisoner_id_fk" FOREIGN KEY ("prisoner_a") REFERENCES "public"."prisoners"("prisoner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keep_apart_pairs" ADD CONSTRAINT "keep_apart_pairs_prisoner_b_prisoners_prisoner_id_fk" FOREIGN KEY ("prisoner_b") REFERENCES "public"."prisoners"("prisoner_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "keep_apart_pairs_a_idx" ON "keep_apart_pairs" USING btree ("prisoner_a") WHERE "keep_apart_pairs"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "keep_apart_pairs_b_idx" ON "keep_apart_pairs" USING btree ("prisoner_b") WHERE "keep_apart_pairs"."ended_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "keep_apart_pairs_active_idx" ON "keep_apart_pairs" USING btree (least("prisoner_a", "prisoner_b"),greatest("prisoner_a", "prisoner_b")) WHERE "keep_apart_pairs"."ended_at" is null;
