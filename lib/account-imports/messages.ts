/** The reference's import messages (App_Data/Displays Imported, GroupImported), in English. */

export function importedMessage(title: string, added: number, updated: number): string {
  return `${title}: ${added} entries have been added and ${updated} entries updated.`;
}

export function groupsImportedMessage(
  groups: { added: number; updated: number },
  members: { added: number; updated: number },
): string {
  return `Groups: Group ${groups.added} added, ${groups.updated} updated. Group members Added ${members.added} and updated ${members.updated}.`;
}
