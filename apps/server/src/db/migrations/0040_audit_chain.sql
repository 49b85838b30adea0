ALTER TABLE "audit_log" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "oidc_id_token" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_seq_idx" ON "audit_log" USING btree ("seq");--> statement-breakpoint
CREATE TABLE "audit_chain" (
	"id" smallint PRIMARY KEY NOT NULL,
	"adopted" boolean DEFAULT false NOT NULL,
	"head_seq" bigint DEFAULT 0 NOT NULL,
	"head_hash" text DEFAULT '' NOT NULL,
	"anchor_seq" bigint DEFAULT 0 NOT NULL,
	"anchor_hash" text DEFAULT '' NOT NULL,
	"mac" text DEFAULT '' NOT NULL,
	CONSTRAINT "audit_chain_one_row" CHECK ("audit_chain"."id" = 1)
);
