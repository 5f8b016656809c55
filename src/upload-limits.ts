// The real server's upload settings the mock runs with (its defaults for a self-hosted
// installation). Ground of the layering: the HTTP edge sizes multipart bodies by them, the domain
// refuses larger files with them and reports them in POST /register.

/** The server setting MAX_FILE_UPLOAD_SIZE: POST /user_uploads refuses larger files. */
export const MAX_FILE_UPLOAD_SIZE_MIB = 25;

/** The server setting MAX_AVATAR_FILE_SIZE_MIB: larger avatars are refused. */
export const MAX_AVATAR_FILE_SIZE_MIB = 5;
