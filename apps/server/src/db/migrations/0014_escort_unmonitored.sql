-- Decision 037: an escort recorded with an officer who wears no tracker exempts nothing. Existing escorts were all
-- created as monitored; those whose officer has no tracker now simply hold nothing until one is assigned.
ALTER TABLE "escorts" ADD COLUMN "unmonitored" boolean DEFAULT false NOT NULL;
