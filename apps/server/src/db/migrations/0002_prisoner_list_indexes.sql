DROP INDEX "prisoners_created_idx";--> statement-breakpoint
CREATE INDEX "prisoners_last_name_prefix_idx" ON "prisoners" USING btree (lower("last_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "prisoners_first_name_prefix_idx" ON "prisoners" USING btree (lower("first_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "prisoners_status_idx" ON "prisoners" USING btree ("status","created_at","prisoner_id");--> statement-breakpoint
CREATE INDEX "prisoners_created_idx" ON "prisoners" USING btree ("created_at","prisoner_id");