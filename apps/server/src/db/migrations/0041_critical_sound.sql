ALTER TABLE "admins" ADD COLUMN "critical_sound" boolean;
