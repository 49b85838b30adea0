ALTER TABLE "alerts" ADD COLUMN "nearby_staff" jsonb;
