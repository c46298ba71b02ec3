// The folder holding the {lng}.json dictionaries, for the server that serves them.
export const localesDir = new URL('.', import.meta.url).pathname;
