/**
 * A parsed JSON answer as the tests read it: exactly what `Response.json()` gives (the DOM types
 * declare it untyped). Tests walk such answers field by field and assert on each, so they name
 * this type instead of writing out an interface per document.
 */
export type JsonAnswer = Awaited<ReturnType<Response['json']>>;
