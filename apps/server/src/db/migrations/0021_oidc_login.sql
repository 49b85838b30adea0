ALTER TABLE "admins" ADD COLUMN "oidc_issuer" text;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "oidc_subject" text;--> statement-breakpoint
ALTER TABLE "admins" ADD CONSTRAINT "admins_oidc_identity_check" CHECK (("admins"."oidc_issuer" is null) = ("admins"."oidc_subject" is null));--> statement-breakpoint
CREATE UNIQUE INDEX "admins_oidc_identity_unique" ON "admins" USING btree ("oidc_issuer","oidc_subject");--> statement-breakpoint
CREATE TABLE "oidc_login_attempts" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "oidc_login_attempts_expires_idx" ON "oidc_login_attempts" USING btree ("expires_at");
