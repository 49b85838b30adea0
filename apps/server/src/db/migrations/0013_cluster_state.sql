ALTER TABLE "devices" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "engine_state" jsonb;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "engine_node" text;--> statement-breakpoint
ALTER TABLE "escorts" ADD COLUMN "unescorted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "keep_apart_pairs" ADD COLUMN "meeting" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "devices_engine_node_idx" ON "devices" USING btree ("engine_node");