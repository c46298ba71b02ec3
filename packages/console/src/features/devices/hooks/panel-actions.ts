/** The device panel's two button groups from the server's offered lists: each action once, in the first group that has it. */
export function panelActionGroups(actions: { main: string[]; info: string[] }): { main: string[]; info: string[] } {
  const seen = new Set<string>();
  const once = (list: string[]) =>
    list.filter((action) => {
      if (seen.has(action)) return false;
      seen.add(action);
      return true;
    });
  const main = once(actions.main);
  return { main, info: once(actions.info) };
}
