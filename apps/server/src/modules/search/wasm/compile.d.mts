/** Compiles dot.wat and answers the module as base64. */
export function compile(): Promise<string>;
