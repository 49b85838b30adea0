ALTER TABLE "roll_counts" ADD COLUMN "submissions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "roll_counts" ADD COLUMN "accounts" jsonb DEFAULT '[]'::jsonb NOT NULL;
