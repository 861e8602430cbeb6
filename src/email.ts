/**
 * What an e-mail address is, for every layer that checks one (the configuration's Pix key, the
 * domain's texts, the edge's readers). Imports nothing.
 *
 * Local part, @, then dot-separated labels. NOTE: each label excludes the dot, so there is one
 * way to match any text and the check is linear (the older `[^\s@]+\.[^\s@]+` backtracked).
 */
export const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
