ALTER TABLE "messages" ADD COLUMN "type" text DEFAULT 'note' NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_type_check" CHECK ("messages"."type" in ('note', 'handover', 'radio_call', 'lockdown', 'incident'));--> statement-breakpoint
CREATE INDEX "messages_type_idx" ON "messages" USING btree ("type","id");--> statement-breakpoint
CREATE INDEX "messages_body_trgm_idx" ON "messages" USING gin (lower("body") gin_trgm_ops);--> statement-breakpoint
CREATE TABLE "message_links" (
	"message_id" integer NOT NULL,
	"kind" text NOT NULL,
	"target_id" integer NOT NULL,
	CONSTRAINT "message_links_pk" PRIMARY KEY("message_id","kind","target_id"),
	CONSTRAINT "message_links_kind_check" CHECK ("message_links"."kind" in ('prisoner', 'alert', 'incident'))
);
--> statement-breakpoint
ALTER TABLE "message_links" ADD CONSTRAINT "message_links_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_links_target_idx" ON "message_links" USING btree ("kind","target_id","message_id");--> statement-breakpoint
CREATE TABLE "message_reads" (
	"message_id" integer NOT NULL,
	"admin_id" integer,
	"reader_name" text NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_reads_message_admin_unique" UNIQUE("message_id","admin_id")
);
--> statement-breakpoint
ALTER TABLE "message_reads" ADD CONSTRAINT "message_reads_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reads" ADD CONSTRAINT "message_reads_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_reads_admin_idx" ON "message_reads" USING btree ("admin_id","message_id");
