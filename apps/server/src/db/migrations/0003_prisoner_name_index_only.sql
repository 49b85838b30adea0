-- The name-prefix indexes also carry the name itself, so counting a filtered list is an index-only scan
-- (PostgreSQL cannot answer from an expression index alone). Drizzle cannot declare INCLUDE, hence this file.
DROP INDEX IF EXISTS "prisoners_last_name_prefix_idx";--> statement-breakpoint
CREATE INDEX "prisoners_last_name_prefix_idx" ON "prisoners" USING btree (lower("last_name") text_pattern_ops) INCLUDE ("last_name");--> statement-breakpoint
DROP INDEX IF EXISTS "prisoners_first_name_prefix_idx";--> statement-breakpoint
CREATE INDEX "prisoners_first_name_prefix_idx" ON "prisoners" USING btree (lower("first_name") text_pattern_ops) INCLUDE ("first_name");
