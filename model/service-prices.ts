/**
 * Monthly prices of what the dashboard service runs on (us-east-1, on-demand, as of PRICES_AS_OF in
 * model/instance-types.ts), each from the vendor's pricing page named beside it. A service runs all month, so its
 * estimate is per month (HOURS_PER_MONTH hours), unlike a benchmark run's per hour.
 */
/** EC2 Linux on-demand, USD per hour (https://aws.amazon.com/ec2/pricing/on-demand/). The service needs x86_64: the kit's Node.js is linux-x64. */
export const SERVICE_INSTANCE_USD_PER_HOUR: Record<string, number> = {
  "t3.micro": 0.0104,
  "t3.small": 0.0208,
  "t3.medium": 0.0416,
  "m6i.large": 0.096,
};
/** RDS for PostgreSQL, Single-AZ, USD per hour (https://aws.amazon.com/rds/postgresql/pricing/); Multi-AZ doubles it. */
export const RDS_POSTGRES_USD_PER_HOUR: Record<string, number> = {
  "db.t4g.micro": 0.016,
  "db.t4g.small": 0.032,
  "db.t4g.medium": 0.065,
  "db.m7g.large": 0.168,
};
/** RDS gp3 storage, USD per GB-month, Single-AZ (same page); backups up to the database's size are free. */
export const RDS_GP3_USD_PER_GB_MONTH = 0.115;
/** NAT gateway, USD per hour, plus USD per GB processed (https://aws.amazon.com/vpc/pricing/). */
export const NAT_GATEWAY_USD_PER_HOUR = 0.045;
export const NAT_GATEWAY_USD_PER_GB = 0.045;
/** Application Load Balancer, USD per hour, plus at least one LCU-hour (https://aws.amazon.com/elasticloadbalancing/pricing/). */
export const ALB_USD_PER_HOUR = 0.0225;
export const ALB_LCU_USD_PER_HOUR = 0.008;
/** Secrets Manager, USD per secret per month (https://aws.amazon.com/secrets-manager/pricing/); API calls $0.05 per 10,000. */
export const SECRET_USD_PER_MONTH = 0.4;
