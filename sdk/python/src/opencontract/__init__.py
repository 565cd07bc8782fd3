"""OpenContract's Python SDK: a signed client per agent, the operator's client, typed models, sync and
async (``opencontract.aio``). Every refusal of the API raises ``ApiError`` with the API's ``code``."""

from .client import AgentClient, OperatorClient
from .errors import ApiError
from .events import EventStream, FeedStream, StreamedEvent, StreamEnd
from .signing import address_from_private_key, random_private_key, sign_request

__all__ = [
    "AgentClient",
    "ApiError",
    "EventStream",
    "FeedStream",
    "OperatorClient",
    "StreamEnd",
    "StreamedEvent",
    "address_from_private_key",
    "random_private_key",
    "sign_request",
]
__version__ = "0.1.0"
