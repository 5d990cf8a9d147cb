declare module 'smartquotes' {
  const smartquotes: { string(text: string): string };
  export default smartquotes;
}
