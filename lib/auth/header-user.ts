// What the header needs to know about the signed-in user (serialisable, passed to client menus).
export type HeaderUser = {
  name: string;
  email: string | null;
  approved: boolean;
  /** An admin turned the account down (the waiting page then shows why). */
  rejected: boolean;
  admin: boolean;
};

/** The signed-in visitor as the header shows them: the user, any restriction label and the unread notifications. */
export type HeaderSession = { user: HeaderUser; restriction: string | null; unread: number };
