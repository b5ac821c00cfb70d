/**
 * Set (to `1`) by the daemon's shim when it runs `hookline bridge` as its fallback: the bridge then
 * applies the daemon's trust rule, so a stopped daemon never runs a project config the daemon would not.
 */
export const REQUIRE_TRUST_VARIABLE = 'HOOKLINE_REQUIRE_TRUST';
