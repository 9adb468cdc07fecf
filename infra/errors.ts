import * as pulumi from "@pulumi/pulumi";

/** Throw the first problem as a ResourceError naming its field: called before any resource (or the component) is registered. */
export function failOn(component: string, problems: Array<{ field: string; message: string }>): void {
  if (problems.length === 0) return;
  const text = problems.map((p) => `${p.field}: ${p.message}`).join("; ");
  throw new pulumi.ResourceError(`${component}: ${text}`, undefined);
}

export const isInteger = (n: unknown, min: number): boolean => typeof n === "number" && Number.isInteger(n) && n >= min;
