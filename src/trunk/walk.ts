/** A walk over the pages of one list, through either API: the pages it read and why it stopped early, if it did. */
export interface Walk {
  pages: number;
  /** Why the walk stopped before the last page, when it did. */
  incomplete?: string;
}
