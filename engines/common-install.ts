/** Apache release archive: every old release stays there (downloads.apache.org keeps only the latest). */
export const APACHE_ARCHIVE = "https://archive.apache.org/dist";
