/** What sizes a histogram's counts array: the layout fields of an encoded histogram's header (payload.ts). */
export interface HistogramLayout {
  numberOfSignificantValueDigits: number;
  lowestDiscernibleValue: number;
  highestTrackableValue: number;
}

/**
 * Bounds on what decoding one encoded histogram may cost, checked before anything is allocated. A histogram's
 * counts array is sized by its layout (HdrHistogram's AbstractHistogram: significant digits and the value range),
 * not by its payload: a 100-byte payload may declare 5 digits up to 2^53 and ask for 4.7 million buckets (38 MB).
 * YCSB records with 3 significant digits (site.ycsb.measurements.OneMeasurementHdrHistogram), about 45,000
 * buckets up to 2^53 us: these bounds leave it 20x room.
 */
export const HISTOGRAM_BOUNDS = {
  /** Buckets of one histogram's counts array (8 MiB of float64 counts). */
  maxCountsArrayLength: 2 ** 20,
  /** Bytes one compressed payload may inflate to: a zlib bomb stops here (V2 needs at most 9 bytes per bucket). */
  maxInflatedBytes: 9 * 2 ** 20 + 40,
} as const;

/** The length of HdrHistogram's counts array for a layout (AbstractHistogram.init / getBucketsNeededToCoverValue). */
export function countsArrayLength(layout: HistogramLayout): number {
  const largestValueWithSingleUnitResolution = 2 * 10 ** layout.numberOfSignificantValueDigits;
  const subBucketCountMagnitude = Math.ceil(Math.log2(largestValueWithSingleUnitResolution));
  const subBucketHalfCountMagnitude = Math.max(subBucketCountMagnitude, 1) - 1;
  const subBucketCount = 2 ** (subBucketHalfCountMagnitude + 1);
  const unitMagnitude = Math.floor(Math.log2(layout.lowestDiscernibleValue));
  let smallestUntrackableValue = subBucketCount * 2 ** unitMagnitude;
  let buckets = 1;
  while (smallestUntrackableValue <= layout.highestTrackableValue) {
    if (smallestUntrackableValue > Number.MAX_SAFE_INTEGER / 2) {
      buckets++;
      break;
    }
    smallestUntrackableValue *= 2;
    buckets++;
  }
  return (buckets + 1) * (subBucketCount / 2);
}

/** Why a layout is refused, or null when it is within bounds. */
export function layoutProblem(layout: HistogramLayout): string | null {
  const length = countsArrayLength(layout);
  if (length > HISTOGRAM_BOUNDS.maxCountsArrayLength) {
    return `layout of ${layout.numberOfSignificantValueDigits} significant digits from ${layout.lowestDiscernibleValue} to ${layout.highestTrackableValue} needs ${length} buckets, more than ${HISTOGRAM_BOUNDS.maxCountsArrayLength}`;
  }
  return null;
}
