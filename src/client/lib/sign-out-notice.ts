// The app tells the user when their session ends by surprise (layout.tsx) and sends them to the
// login page (require-auth.tsx). A sign-out the user asked for on another screen (deleting the
// account) is announced here before it is sent, because the server may end the page's live
// stream, and so the session, before its answer arrives: the page then goes to the dashboard
// with its own message.
let expected = false;

export function expectSignOut(): void {
  expected = true;
}

/** The sign-out did not happen after all (the server refused), or someone signed in since. */
export function cancelExpectedSignOut(): void {
  expected = false;
}

export function isSignOutExpected(): boolean {
  return expected;
}
