/** Where the confirmation pages are: `/confirm/<id>`, and on a team server their sign-in and its callback. */
export const CONFIRM_PATH = "/confirm/";
export const SIGN_IN_PATH = "/confirm/sign-in/";
export const CALLBACK_PATH = "/confirm/callback";
