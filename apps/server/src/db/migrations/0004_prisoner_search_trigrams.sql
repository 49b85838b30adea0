-- The free-text prisoner search (q) reads one text through a trigram index instead of every row (pg_trgm ships
-- with PostgreSQL's contrib and is a trusted extension; PGlite loads it in db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "prisoners_search_trgm_idx" ON "prisoners" USING gin (lower("first_name" || ' ' || "last_name" || ' ' || coalesce("national_id", '') || ' ' || coalesce("cell_id", '')) gin_trgm_ops);