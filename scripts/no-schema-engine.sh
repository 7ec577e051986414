#!/bin/sh
echo "The Prisma schema engine is not available offline; Switchyard applies prisma/migrations itself (see packages/db)." >&2
exit 1
