package io.ycsblab.workloads;

/**
 * The name plans written before LongKeyWorkload gave the per-client insert ranges (ycsblab.insertrange.*): the same
 * class, so such a plan still runs. New plans name LongKeyWorkload for every phase.
 */
public class ClientKeyRangeWorkload extends LongKeyWorkload {}
