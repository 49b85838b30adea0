ALTER TABLE "prisoners" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prisoners" ADD COLUMN "archived_by" text;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "archived_by" text;--> statement-breakpoint
ALTER TABLE "alerts" DROP CONSTRAINT "alerts_prisoner_id_prisoners_prisoner_id_fk";--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_prisoner_id_prisoners_prisoner_id_fk" FOREIGN KEY ("prisoner_id") REFERENCES "public"."prisoners"("prisoner_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keep_apart_pairs" DROP CONSTRAINT "keep_apart_pairs_prisoner_a_prisoners_prisoner_id_fk";--> statement-breakpoint
ALTER TABLE "keep_apart_pairs" ADD CONSTRAINT "keep_apart_pairs_prisoner_a_prisoners_prisoner_id_fk" FOREIGN KEY ("prisoner_a") REFERENCES "public"."prisoners"("prisoner_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keep_apart_pairs" DROP CONSTRAINT "keep_apart_pairs_prisoner_b_prisoners_prisoner_id_fk";--> statement-breakpoint
ALTER TABLE "keep_apart_pairs" ADD CONSTRAINT "keep_apart_pairs_prisoner_b_prisoners_prisoner_id_fk" FOREIGN KEY ("prisoner_b") REFERENCES "public"."prisoners"("prisoner_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escorts" DROP CONSTRAINT "escorts_prisoner_id_prisoners_prisoner_id_fk";--> statement-breakpoint
ALTER TABLE "escorts" ADD CONSTRAINT "escorts_prisoner_id_prisoners_prisoner_id_fk" FOREIGN KEY ("prisoner_id") REFERENCES "public"."prisoners"("prisoner_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escorts" DROP CONSTRAINT "escorts_staff_id_staff_staff_id_fk";--> statement-breakpoint
ALTER TABLE "escorts" ADD CONSTRAINT "escorts_staff_id_staff_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("staff_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
DROP INDEX "prisoners_assigned_cell_idx";--> statement-breakpoint
CREATE INDEX "prisoners_assigned_cell_idx" ON "prisoners" USING btree ("cell_id","tracking_device_id") WHERE "prisoners"."status" in ('On Trial', 'Incarcerated') and "prisoners"."cell_id" is not null and "prisoners"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "prisoners_archived_idx" ON "prisoners" USING btree ("archived_at" DESC,"prisoner_id" DESC) WHERE "prisoners"."archived_at" is not null;
