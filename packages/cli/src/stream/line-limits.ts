/** The longest `hookline run` answer line by default, in UTF-8 bytes, newline excluded. */
export const DEFAULT_MAX_LINE_BYTES = 65_536;
/** Below this, not even an outcome's essentials fit. */
export const MIN_MAX_LINE_BYTES = 1_024;
