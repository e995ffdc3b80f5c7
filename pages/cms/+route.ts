// https://vike.dev/route-string — every URL not taken by another page is a structure record
// (or a 404); the least specific route, so filesystem routes win.
export const route = '/*'
