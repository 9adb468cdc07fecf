-- What each instance is billed for beside its hours, from its boot status markers (model/instance-billing.ts): its
-- EBS volumes and whether it held a public IPv4 address. Null for spans whose markers did not record them (runs from
-- before they did): their realized cost counts their hours only, and says so (model/run-cost.ts spansCostCovers).
ALTER TABLE "instance_spans" ADD COLUMN "volumes" JSONB;
ALTER TABLE "instance_spans" ADD COLUMN "public_ipv4" BOOLEAN;
